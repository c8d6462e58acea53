// db: opaque list cursors. A cursor is the base64url of the LastEvaluatedKey; one that does not decode to a key of the
// partition being listed is 400 invalid_request, so a client can never page into another partition.
import { invalidRequest } from '@rivals/core';

export function encodeCursor(key: Record<string, unknown> | undefined): string | null {
  return key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;
}

export function decodeCursor(cursor: string | undefined, pk: string, skPrefix: string): Record<string, unknown> | undefined {
  if (cursor === undefined) return undefined;
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    const fields = Object.keys(key).sort().join(',');
    if (fields === 'pk,sk' && key.pk === pk && typeof key.sk === 'string' && key.sk.startsWith(skPrefix)) return key;
  } catch {
    // falls through
  }
  throw invalidRequest('The cursor is not valid.', [{ field: 'cursor', problem: 'invalid' }]);
}
