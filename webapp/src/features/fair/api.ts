import { api, unwrapData } from '../../lib/api-client';
import type { CaseItem } from '../cases';
import type { OpenRecord } from './verify';

// TODO(contract): a revealed seed of GET /fair once typed
export interface RevealedSeed {
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  firstNonce: number;
  /** null when the pair was rotated before any open. */
  lastNonce: number | null;
  revealedAt: string;
}

// TODO(contract): the answer of GET /fair, PUT /fair/client-seed, POST /fair/rotate once typed
export interface FairState {
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
  revealed: RevealedSeed[];
}

// TODO(contract): an open of GET /fair/opens once typed
/** One past open as `GET /fair/opens` lists it: the recomputable record plus where it landed. */
export interface FairOpen extends OpenRecord {
  id: number;
  caseId: string;
  inventoryId: number;
  createdAt: string;
}

export const fetchFair = async () => unwrapData<FairState>(await api.get<unknown>('/fair'));
export const changeClientSeed = async (clientSeed: string) =>
  unwrapData<FairState>(await api.put<unknown>('/fair/client-seed', { clientSeed }));
export const rotateSeed = async () => unwrapData<FairState>(await api.post<unknown>('/fair/rotate'));

export async function fetchOpens(page = 1): Promise<FairOpen[]> {
  const list = unwrapData<FairOpen[]>(await api.get<unknown>('/fair/opens', { query: { page } }));
  return Array.isArray(list) ? list : [];
}

// TODO(contract): the answer of GET /fair/verify once typed
/** Server-side check (public): used beside the in-browser one, never instead of it. */
export async function serverVerify(q: { serverSeed: string; clientSeed: string; nonce: number; caseId: string }) {
  return unwrapData<{
    serverSeedHash: string;
    roll: number;
    totalWeight: number;
    item: CaseItem;
    /** null for a skin without a wear range. */
    float: number | null;
    exterior: string | null;
    statTrak: boolean;
  }>(
    await api.get<unknown>('/fair/verify', {
      auth: false,
      query: { server_seed: q.serverSeed, client_seed: q.clientSeed, nonce: q.nonce, case_id: q.caseId },
    }),
  );
}

/** A client seed the server accepts: 1..64 of [A-Za-z0-9_-]. */
export const isValidClientSeed = (s: string) => /^[A-Za-z0-9_-]{1,64}$/.test(s);
