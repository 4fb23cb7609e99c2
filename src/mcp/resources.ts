// The resources both protocol eras serve, in one place: templates for a task, a task's result (in parts)
// and a task's artifact, and resources/read dispatched by URI.
import type { ReadResourceResult, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { ARTIFACT_TEMPLATE, readArtifactResource, type ArtifactResourceDeps } from './artifacts.js';
import { isResultUri, readResultResource, RESULT_TEMPLATE } from './result-resource.js';
import { isTaskUri, readTaskResource, TASK_TEMPLATE } from './task-resource.js';

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [TASK_TEMPLATE, RESULT_TEMPLATE, ARTIFACT_TEMPLATE];

export function readResource(uri: string, d: ArtifactResourceDeps): Promise<ReadResourceResult> {
  if (isTaskUri(uri)) return readTaskResource(uri, d);
  if (isResultUri(uri)) return readResultResource(uri, d);
  return readArtifactResource(uri, d);
}
