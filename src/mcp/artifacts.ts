// Screenshot and PDF results as MCP resources. A result that carries an artifact (a file_id with the
// file_url this service signed for it) is readable at agent-utility://tasks/<task_id>/artifact: the URI
// names the task, so reading it is an ownership check on our task store (the caller's own tasks only), and
// the signature proves the service put that artifact in that result: a caller-named file_id (browser.scrape
// names its keys) never opens another caller's file. A stdio client may have no HTTP server to fetch from.
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../engine/engine.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import { extensionFor } from '../artifacts/artifact-store.js';
import { resolveSecret } from '../auth/secret.js';
import { artifactLinkVerifier, type ArtifactLinkVerifier, type VerifiedArtifact } from '../artifacts/verified-link.js';
import type { Config } from '../config.js';
import type { TaskRow } from '../store/port.js';
import { ownsTask, type Caller } from '../web/caller.js';
import { rpcError } from './errors.js';

/** MCP error code for an unknown resource (2025-11-25 spec). */
export const RESOURCE_NOT_FOUND = -32002;

const URI_PREFIX = 'agent-utility://tasks/';
const URI_SUFFIX = '/artifact';
const TASK_ID = /^task_[0-9A-Za-z_-]{1,64}$/;

export const ARTIFACT_TEMPLATE: ResourceTemplate = {
  uriTemplate: `${URI_PREFIX}{task_id}${URI_SUFFIX}`,
  name: 'task-artifact',
  title: 'Task artifact',
  description: 'The image or PDF produced by a browser.screenshot or browser.pdf task of yours, kept 24 hours.',
};

export type ArtifactRef = VerifiedArtifact;

const verifiers = new WeakMap<Config, ArtifactLinkVerifier>();

/** The link verifier for a configuration (its secret is read once). */
export function artifactVerifier(config: Config): ArtifactLinkVerifier {
  let v = verifiers.get(config);
  if (!v) verifiers.set(config, (v = artifactLinkVerifier(config, resolveSecret(config))));
  return v;
}

/** The artifact a result points to, when the service signed its link: any tool that publishes one is covered. */
export function artifactOf(result: unknown, verify: ArtifactLinkVerifier): ArtifactRef | undefined {
  return verify(result);
}

export function artifactUri(taskId: string): string {
  return `${URI_PREFIX}${taskId}${URI_SUFFIX}`;
}

export function taskIdFromArtifactUri(uri: string): string | undefined {
  if (!uri.startsWith(URI_PREFIX) || !uri.endsWith(URI_SUFFIX)) return undefined;
  const id = uri.slice(URI_PREFIX.length, uri.length - URI_SUFFIX.length);
  return TASK_ID.test(id) ? id : undefined;
}

export function artifactName(ref: ArtifactRef): string {
  return `${ref.fileId}${extensionFor(ref.contentType)}`;
}

export interface ArtifactResourceDeps {
  engine: Engine;
  caller: Caller;
  config: Config;
  artifacts: () => Promise<ArtifactStore>;
}

export async function readArtifactResource(uri: string, d: ArtifactResourceDeps): Promise<ReadResourceResult> {
  const notFound = (why: string) => rpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (${why}).`, { uri });
  const taskId = taskIdFromArtifactUri(uri);
  if (!taskId) throw notFound(`artifact URIs look like ${ARTIFACT_TEMPLATE.uriTemplate}`);
  const task = await d.engine.get(taskId);
  if (!task || !ownsTask(d.caller, task)) throw notFound('no such task of yours');
  const ref = task.status === 'complete' ? artifactOf(task.result, artifactVerifier(d.config)) : undefined;
  if (!ref) throw notFound('the task has no artifact');
  const stored = await (await d.artifacts()).get(ref.fileId);
  if (!stored) throw notFound('the artifact has expired (artifacts are kept 24 hours)');
  return { contents: [{ uri, mimeType: stored.meta.contentType, blob: stored.body.toString('base64') }] };
}

/** The caller's artifacts among their recent tasks (newest first), for resources/list. */
export async function listArtifactResources(d: Pick<ArtifactResourceDeps, 'engine' | 'caller' | 'config'>, scan = 100): Promise<Resource[]> {
  const now = Date.now();
  const verify = artifactVerifier(d.config);
  const tasks = await d.engine.listByPayer(d.caller.payer, scan);
  return tasks.flatMap((t: TaskRow) => {
    const ref = t.status === 'complete' ? artifactOf(t.result, verify) : undefined;
    if (!ref || (ref.expiresAt && Date.parse(ref.expiresAt) <= now)) return [];
    return [
      {
        uri: artifactUri(t.id),
        name: artifactName(ref),
        title: `${t.tool} result of ${t.id}`,
        mimeType: ref.contentType,
        ...(ref.bytes !== undefined ? { size: ref.bytes } : {}),
      },
    ];
  });
}
