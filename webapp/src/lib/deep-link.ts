/** What a `startapp` parameter asks for. */
export type StartTarget = { kind: 'item'; itemId: string; ref: string } | { kind: 'ref'; ref: string };

/**
 * Parses Telegram's start parameter: `item_{id}_ref{hex}` (a shared skin) or `ref_{hex}`
 * (an invite). Our ids never contain `_` (docs/api.md), so the split is unambiguous.
 */
export function parseStartParam(param: string | null | undefined): StartTarget | null {
  if (!param) return null;
  const item = /^item_([A-Za-z0-9-]+)_ref([0-9a-f]+)$/.exec(param);
  if (item) return { kind: 'item', itemId: item[1], ref: item[2] };
  const ref = /^ref_([0-9a-f]+)$/.exec(param);
  if (ref) return { kind: 'ref', ref: ref[1] };
  return null;
}

/** The in-app path a start parameter opens at start-up, if any. */
export function startPath(param: string | null | undefined): string | null {
  const target = parseStartParam(param);
  return target?.kind === 'item' ? `/skin/${encodeURIComponent(target.itemId)}` : null;
}

/**
 * The owner's ref code a shared-skin link carried for `itemId`, if this launch came through
 * one: the server shows someone's skin only to the holders of its owner's link.
 */
export function shareRefFor(param: string | null | undefined, itemId: string): string | null {
  const target = parseStartParam(param);
  return target?.kind === 'item' && target.itemId === itemId ? target.ref : null;
}
