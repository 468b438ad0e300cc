/** The provably-fair feature's public entry. */
export { changeClientSeed, fetchFair, fetchOpens, isValidClientSeed, rotateSeed, type FairOpen, type FairState } from './api';
export { openNumber, openRange } from './counts';
export { computeInstance, verifyOpen, type InstanceCheck, type Verification } from './verify';
