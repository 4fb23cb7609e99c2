// `call --out file`: a result that points at an artifact (screenshot, PDF) is saved as the artifact's
// bytes; any other result is saved as its JSON.
import fs from 'node:fs';

export interface ArtifactRef {
  file_id: string;
  file_url: string;
}

export function artifactOf(result: unknown): ArtifactRef | null {
  if (!result || typeof result !== 'object') return null;
  const r = result as Record<string, unknown>;
  return typeof r.file_id === 'string' && typeof r.file_url === 'string' ? { file_id: r.file_id, file_url: r.file_url } : null;
}

/** Writes the artifact bytes (fetched by `load`) or the result JSON to `file`. */
export async function saveResult(file: string, result: unknown, load: (ref: ArtifactRef) => Promise<Uint8Array>): Promise<void> {
  const ref = artifactOf(result);
  if (ref) fs.writeFileSync(file, await load(ref));
  else fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
}

/** Downloads a signed file URL from the service (relative URLs are resolved against it). */
export async function downloadArtifact(base: string, ref: ArtifactRef): Promise<Uint8Array> {
  const r = await fetch(new URL(ref.file_url, `${base}/`));
  if (!r.ok) throw new Error(`Downloading ${ref.file_id} failed: the service answered ${r.status}.`);
  return new Uint8Array(await r.arrayBuffer());
}
