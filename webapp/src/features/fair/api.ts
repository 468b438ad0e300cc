import { api, unwrapData } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';

type Schemas = components['schemas'];

/** A server seed after its rotation (`lastNonce` null when the pair was rotated before any open). */
export type RevealedSeed = Schemas['RevealedSeed'];

/** `GET /fair`, `PUT /fair/client-seed`, `POST /fair/rotate`: the player's seeds. */
export type FairState = Schemas['FairState'];

/** One past open as `GET /fair/opens` lists it: the recomputable record plus where it landed. */
export type FairOpen = Schemas['OpenRecord'];

export const fetchFair = async () => unwrapData<FairState>(await api.get<unknown>('/fair'));
export const changeClientSeed = async (clientSeed: string) =>
  unwrapData<FairState>(await api.put<unknown>('/fair/client-seed', { clientSeed }));
export const rotateSeed = async () => unwrapData<FairState>(await api.post<unknown>('/fair/rotate'));

export async function fetchOpens(page = 1): Promise<FairOpen[]> {
  const list = unwrapData<FairOpen[]>(await api.get<unknown>('/fair/opens', { query: { page } }));
  return Array.isArray(list) ? list : [];
}

/** Server-side check (public): used beside the in-browser one, never instead of it. */
export async function serverVerify(q: { serverSeed: string; clientSeed: string; nonce: number; caseId: string }) {
  return unwrapData<Schemas['Verified']>(
    await api.get<unknown>('/fair/verify', {
      auth: false,
      query: { server_seed: q.serverSeed, client_seed: q.clientSeed, nonce: q.nonce, case_id: q.caseId },
    }),
  );
}

/** A client seed the server accepts: 1..64 of [A-Za-z0-9_-]. */
export const isValidClientSeed = (s: string) => /^[A-Za-z0-9_-]{1,64}$/.test(s);
