// The plain Node ceiling: a node:http handler that reads the JSON body and answers 202 with a small JSON
// body, no framework. The task service's fast lane (src/http/fast-lane.ts) runs on this layer.
import http from 'node:http';

const body = JSON.stringify({ task_id: 'task_0000000000000000', poll_token: 'pt_x', status: 'pending', poll_url: '/v1/tasks/task_0000000000000000' });
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    res.writeHead(202, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
