/** The provably-fair feature's public entry. */
export { changeClientSeed, fetchFair, fetchOpens, isValidClientSeed, rotateSeed, type FairOpen, type FairState } from './api';
export { verifyOpen, type Verification } from './verify';
