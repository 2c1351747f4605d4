// Interception for Node releases that do not read the proxy variables (docs/interception.md, "Node"): loaded
// into every Node process of an intercepted agent by NODE_OPTIONS=--require, it sends https requests, those of
// the `https` module (node-fetch, Octokit's older clients) and those of the global fetch, through HTTPS_PROXY by
// a CONNECT tunnel, but for the hosts NO_PROXY names. Node's standard library only: the agent's packages are its
// own. A Node that honours NODE_USE_ENV_PROXY (22.21 and 24.5 on) gives its global agent the environment to read
// the proxy from, and is left to do it itself.
'use strict';

const https = require('node:https');
const net = require('node:net');
const tls = require('node:tls');

const PROXY = process.env.HTTPS_PROXY || process.env.https_proxy;
const NO_PROXY = (process.env.NO_PROXY || process.env.no_proxy || '').split(/[\s,]+/).filter(Boolean);
const ALPN = ['http/1.1']; // what Node's https and undici ask for by default

if (PROXY && !https.globalAgent.options.proxyEnv) {
  install(new URL(PROXY));
}

function install(proxy) {
  const connect = (host, port, callback) => tunnel(proxy, host, port, callback);

  // Every https.Agent's connections, the global agent's and those of agents a library makes (keep-alive ones),
  // but agents that make their own (proxy agents) override this method and are left alone.
  const direct = https.Agent.prototype.createConnection;
  https.Agent.prototype.createConnection = function createConnection(options, callback) {
    if (bypassed(options.host, options.port)) {
      return direct.call(this, options, callback);
    }
    connect(options.host, options.port, (error, socket) => {
      // The agent hands the request a connection that is still shaking hands, as it does its own.
      callback(error, error ? undefined : tls.connect({ ...options, socket }));
    });
    return undefined; // the agent waits for the callback
  };

  // The global fetch is Node's own copy of undici, which reads its dispatcher from this symbol; reading a class it
  // exposes (Response) loads that copy, which sets an Agent there. A second Agent of the same class, with a
  // connector of our own, is what undici's own ProxyAgent makes.
  const key = Symbol.for('undici.globalDispatcher.1');
  void globalThis.Response;
  const Agent = globalThis[key]?.constructor;
  if (typeof Agent === 'function') {
    globalThis[key] = new Agent({
      connect(options, callback) {
        const secure = options.protocol === 'https:';
        const port = Number(options.port) || (secure ? 443 : 80);
        const done = once(callback);
        if (!secure || bypassed(options.hostname, port)) {
          const socket = secure
            ? tls.connect({ host: options.hostname, port, servername: serverName(options), ALPNProtocols: ALPN })
            : net.connect({ host: options.hostname, port });
          socket.once(secure ? 'secureConnect' : 'connect', () => done(null, socket));
          socket.once('error', done);
          return;
        }
        connect(options.hostname, port, (error, raw) => {
          if (error) {
            done(error);
            return;
          }
          const socket = tls.connect({ socket: raw, servername: serverName(options), ALPNProtocols: ALPN });
          socket.once('secureConnect', () => done(null, socket));
          socket.once('error', done);
        });
      },
    });
  }
}

// A socket to `host:port` through the proxy: CONNECT, with the credential of the proxy's URL, and the socket once
// the proxy answers 200; else the proxy's status line as the error.
function tunnel(proxy, host, port, callback) {
  const done = once(callback);
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const socket = net.connect(Number(proxy.port) || 80, proxy.hostname.replace(/^\[|\]$/g, ''));
  const credential = proxy.username
    ? `Proxy-Authorization: Basic ${Buffer.from(
        `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`,
      ).toString('base64')}\r\n`
    : '';
  let head = Buffer.alloc(0);
  const onData = (chunk) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) {
      return;
    }
    socket.off('data', onData);
    socket.off('error', done);
    const status = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
    if (!/^HTTP\/1\.[01] 200 /.test(status)) {
      socket.destroy();
      done(new Error(`the proxy answered "${status}" to CONNECT ${authority}`));
      return;
    }
    socket.pause(); // what follows the answer is the host's, read by whoever takes the socket
    if (head.length > end + 4) {
      socket.unshift(head.subarray(end + 4));
    }
    done(null, socket);
  };
  socket.on('data', onData);
  socket.once('error', done);
  socket.once('connect', () => {
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${credential}\r\n`);
  });
}

// Whether NO_PROXY sends `host:port` around the proxy: an entry names the host or a domain above it (`.acme.com`,
// `*.acme.com` and `acme.com` alike), with or without a port; `*` names every host.
function bypassed(host, port) {
  const name = String(host).replace(/^\[|\]$/g, '').toLowerCase();
  return NO_PROXY.some((entry) => {
    if (entry === '*') {
      return true;
    }
    const [entryHost, entryPort] = split(entry.toLowerCase());
    if (entryPort !== undefined && Number(entryPort) !== Number(port)) {
      return false;
    }
    const domain = entryHost.replace(/^\*?\./, '');
    return name === domain || name.endsWith(`.${domain}`);
  });
}

// `[::1]:8080`, `host:8080`, `::1` and `host` as host and port.
function split(entry) {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    return [bracketed[1], bracketed[2]];
  }
  const hostPort = /^([^:]+):(\d+)$/.exec(entry);
  return hostPort ? [hostPort[1], hostPort[2]] : [entry, undefined];
}

function serverName(options) {
  const name = options.servername || options.hostname;
  return net.isIP(name) ? undefined : name; // TLS names no address
}

function once(callback) {
  let called = false;
  return (...args) => {
    if (!called) {
      called = true;
      callback(...args);
    }
  };
}
