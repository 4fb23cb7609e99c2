// The REST calls benchmarks make around their measurements: create a task with an API key, wait for it.

/** POST /v1/tools/{tool}/tasks with `key`; the 202 body (task_id, poll_url, poll_token…). */
export async function postTask(origin, key, tool, body) {
  const res = await fetch(`${origin}/v1/tools/${tool}/tasks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body,
  });
  return res.json();
}

/** The task once settled (GET poll_url?wait=10); throws unless it completed. */
export async function waitCompleted(origin, created) {
  const task = await (await fetch(`${origin}${created.poll_url}?wait=10`, { headers: { authorization: `Bearer ${created.poll_token}` } })).json();
  if (task.status !== 'complete') throw new Error(`task ended ${task.status}: ${task.error}`);
  return task;
}
