'use strict';
// POST a JSON body over a kept-alive connection (node:http: cheaper per call than fetch,
// so a new match costs the drivers little).

const http = require('node:http');

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function postJson(address, path, body) {
  const [host, port] = address.split(':');
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host,
        port: Number(port),
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': payload.length },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (response.statusCode !== 200) reject(new Error(`${path}: HTTP ${response.statusCode} ${text}`));
          else resolve(JSON.parse(text));
        });
      }
    );
    request.on('error', reject);
    request.end(payload);
  });
}

module.exports = { postJson };
