/**
 * The development gate's proof (`POST /dev-gate` → `{proof, expiresAt}`): kept for this tab in
 * session storage and sent as `X-Dev-Gate` on `GET /dev/init-data` and `POST /auth`. The
 * server decides; an expired or refused proof (`403 dev_gate_required`) shows the gate again.
 * In `lib/` because the demo's init-data request (lib/telegram.ts) sends it too, not only the
 * gates and the session.
 */
import { readJson, readString, writeJson, writeString } from './storage';

const KEY = 'fragbox.devGateProof';
const REQUIRED_KEY = 'fragbox.devGateProofRequired';
export const DEV_GATE_HEADER = 'X-Dev-Gate';

interface StoredProof {
  proof: string;
  /** Unix seconds. */
  expiresAt: number;
}

export function readProof(nowSeconds = Date.now() / 1000): string | null {
  const p = readJson<StoredProof>(KEY, 'session');
  if (!p || typeof p.proof !== 'string' || !p.proof) return null;
  if (typeof p.expiresAt === 'number' && p.expiresAt <= nowSeconds) return null;
  return p.proof;
}

export function saveProof(proof: string, expiresAt: number): void {
  writeJson(KEY, { proof, expiresAt }, 'session');
  writeString(REQUIRED_KEY, '1');
}

/** This server hands out proofs (a server without them only checks the password). */
export function proofRequired(): boolean {
  return readString(REQUIRED_KEY) === '1';
}

export function forgetProof(): void {
  writeString(KEY, null, 'session');
}

/** The header for the requests the gate protects, when a proof is held. */
export function devGateHeaders(): Record<string, string> {
  const proof = readProof();
  return proof ? { [DEV_GATE_HEADER]: proof } : {};
}
