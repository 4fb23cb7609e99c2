// The HTTP-layer ceiling: a bare Express 5 route answering 202 with a small JSON body, nothing else.
import express from 'express';

const app = express();
app.post('/v1/tools/:tool/tasks', (_req, res) => {
  res.status(202).json({ task_id: 'task_0000000000000000', poll_token: 'pt_x', status: 'pending', poll_url: '/v1/tasks/task_0000000000000000' });
});
const server = app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
