// What Node 20's two ways of making a request get under interception, each to a vendor's host (through the
// proxy, into the world), to another host (through the proxy, which cannot reach it) and to soundstage's own
// https URL, OWN_URL (NO_PROXY: straight to it): printed as JSON, for test_mcp_servers.py to compare with the
// world's trace.
import https from 'node:https';

const token = { authorization: `Bearer ${process.env.SLACK_BOT_TOKEN}` };
const targets = {
  vendor: 'https://slack.com/api/auth.test',
  outside: 'https://soundstage-test.invalid/',
  own: process.env.OWN_URL,
};
const headers = (name) => (name === 'own' ? { 'dd-api-key': process.env.DD_API_KEY } : token);

async function viaFetch(name) {
  try {
    const response = await fetch(targets[name], { headers: headers(name) });
    return [response.status, await response.json()];
  } catch (error) {
    return ['failed', String(error.cause?.message ?? error.message)];
  }
}

function viaHttps(name) {
  return new Promise((resolve) => {
    https
      .get(targets[name], { headers: headers(name) }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve([response.statusCode, JSON.parse(body)]));
      })
      .on('error', (error) => resolve(['failed', error.message]));
  });
}

const seen = {};
for (const name of Object.keys(targets)) {
  seen[name] = { fetch: await viaFetch(name), https: await viaHttps(name) };
}
console.log(JSON.stringify(seen));
