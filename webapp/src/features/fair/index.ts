/** The provably-fair feature's public entry. */
export { changeClientSeed, fetchFair, fetchOpens, isValidClientSeed, rotateSeed, type FairOpen, type FairState } from './api';
export { openNumber, openRange } from './counts';
export { verifyOpen, type Verification } from './verify';
