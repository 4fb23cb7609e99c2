// A settled task as an MCP CallToolResult. Success: structuredContent (checked by clients against the
// tool's outputSchema) plus the same JSON as a text block for clients that only read text (the spec's
// SHOULD); for artifacts a resource_link, and for images under the size cap the image itself. Failure:
// isError with the sentence. A bounded tool's result (page text) is one window of AGENT_MAX_CHARS by
// default, so both blocks stay small, and a resource_link names the next part (docs/mcp.md).
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../logger.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { ArtifactLinkVerifier } from '../artifacts/verified-link.js';
import type { TaskRow } from '../store/port.js';
import { boundedResult, isBounded } from '../engine/result-view.js';
import { AGENT_MAX_CHARS } from '../registry/bounded-result.js';
import type { ToolRegistry } from '../registry/registry.js';
import { resultUri } from './result-resource.js';
import { artifactName, artifactOf, artifactUri } from './artifacts.js';
import { errorResult, TASK_META_KEY } from './error-result.js';

export { errorResult, TASK_META_KEY } from './error-result.js';

export interface CallResultDeps {
  /** The engine's registry: which tools' results are cut into windows. */
  registry: ToolRegistry;
  artifacts: () => Promise<ArtifactStore>;
  /** Recognises the artifact links the service signed (a caller-named file_id is no artifact). */
  verifyArtifact: ArtifactLinkVerifier;
  /** Images up to this many bytes are inlined; 0 never inlines. */
  inlineImageMaxBytes: number;
  log: Logger;
}

export async function toCallToolResult(task: TaskRow, d: CallResultDeps): Promise<CallToolResult> {
  if (task.status === 'failed') return errorResult(task.error ?? `The ${task.tool} task failed.`, task.id, task.errorCode);
  if (task.status === 'cancelled') return errorResult(task.error ?? 'The task was cancelled.', task.id);
  if (task.status !== 'complete') return errorResult(`The task ${task.id} is still ${task.status}.`, task.id);

  const result = (boundedResult(task, { registry: d.registry, maxChars: AGENT_MAX_CHARS }) ?? {}) as Record<string, unknown>;
  const content: ContentBlock[] = [{ type: 'text', text: JSON.stringify(result) }];
  if (isBounded(d.registry, task.tool) && typeof result.next_offset === 'number') content.push(nextPartLink(task, result.next_offset));
  const ref = artifactOf(result, d.verifyArtifact);
  if (ref) {
    content.push({
      type: 'resource_link',
      uri: artifactUri(task.id),
      name: artifactName(ref),
      mimeType: ref.contentType,
      description: `${task.tool} output; read it with resources/read or download file_url (valid 24 hours).`,
      ...(ref.bytes !== undefined ? { size: ref.bytes } : {}),
    });
    const image = ref.contentType.startsWith('image/') ? await inlineImage(ref.fileId, ref.bytes, d) : undefined;
    if (image) content.push({ type: 'image', data: image, mimeType: ref.contentType });
  }
  return { content, structuredContent: result, _meta: { [TASK_META_KEY]: task.id } };
}

/** Where the rest is: the same window size from next_offset, read from the stored task (free). */
function nextPartLink(task: TaskRow, nextOffset: number): ContentBlock {
  const input = (task.input ?? {}) as { max_chars?: unknown };
  const maxChars = typeof input.max_chars === 'number' ? input.max_chars : undefined;
  return {
    type: 'resource_link',
    uri: resultUri(task.id, { offset: nextOffset, ...(maxChars !== undefined ? { max_chars: maxChars } : {}) }),
    name: `${task.id}-result-from-${nextOffset}`,
    mimeType: 'application/json',
    description: `The next part of this result from character ${nextOffset}: read it with resources/read, free (or GET /v1/tasks/${task.id}/result?offset=${nextOffset} over REST).`,
  };
}

async function inlineImage(fileId: string, bytes: number | undefined, d: CallResultDeps): Promise<string | undefined> {
  if (d.inlineImageMaxBytes <= 0 || (bytes !== undefined && bytes > d.inlineImageMaxBytes)) return undefined;
  try {
    const stored = await (await d.artifacts()).get(fileId);
    if (!stored || stored.body.byteLength > d.inlineImageMaxBytes) return undefined;
    return stored.body.toString('base64');
  } catch (err) {
    // The link still works; an unreadable artifact only costs the inline preview.
    d.log.warn('could not inline artifact image', { fileId, err });
    return undefined;
  }
}
