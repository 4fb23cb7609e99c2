// Scripted SMTP peers for email.verify tests and its benchmark: real SMTP servers (the `smtp-server`
// package, in-process) that answer RCPT TO the way a kind of mail server does, plus two raw TCP servers
// for failures smtp-server cannot stage (a banner that never comes, a connection dropped mid-session).
// All peers of one group share a port, each on its own loopback address, because email.verify probes
// one configured port (SMTP_PROBE_PORT) and tells servers apart by the MX host's address.
import net from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';

export type PeerBehaviour =
  /** Known users 250; anyone else 550 5.1.1. Offers STARTTLS (smtp-server's self-signed certificate). */
  | 'strict'
  /** Every recipient 250. */
  | 'catch_all'
  /** A recipient's first RCPT gets 451 4.7.1; later ones are answered as strict. */
  | 'greylist'
  /** Known users 552 5.2.2 (over quota); anyone else 550 5.1.1. */
  | 'full'
  /** Known users 550 5.2.1 (disabled); anyone else 550 5.1.1. */
  | 'disabled'
  /** Every recipient 554 5.7.1 (client host blocklisted). */
  | 'policy'
  /** 421 at the greeting. */
  | 'banner_421'
  /** Accepts the TCP connection and never says anything. */
  | 'silent'
  /** Greets, then hangs up on the first command. */
  | 'drop';

export interface PeerSpec {
  /** Loopback address to listen on, e.g. 127.25.0.1. */
  host: string;
  behaviour: PeerBehaviour;
  /** Local parts that exist (strict, greylist, full, disabled). */
  users?: string[];
}

export interface PeerRecord {
  /** TCP connections accepted. */
  connections: number;
  /** EHLO/HELO names clients used. */
  heloNames: string[];
  mailFrom: string[];
  rcptTo: string[];
}

export interface SmtpPeer extends PeerRecord {
  host: string;
  behaviour: PeerBehaviour;
}

export interface SmtpPeerGroup {
  port: number;
  peers: Map<string, SmtpPeer>;
  /** Total connections over all peers. */
  connections(): number;
  stop(): Promise<void>;
}

interface Listening {
  close(): Promise<void>;
}

function smtpError(code: number, text: string): Error & { responseCode: number } {
  return Object.assign(new Error(text), { responseCode: code });
}

function localPart(address: SMTPServerAddress): string {
  const at = address.address.lastIndexOf('@');
  return address.address.slice(0, at).toLowerCase();
}

function rcptHandler(peer: SmtpPeer, users: Set<string>): (address: SMTPServerAddress, session: SMTPServerSession, cb: (err?: Error | null) => void) => void {
  const seen = new Set<string>();
  const strict = (address: SMTPServerAddress, cb: (err?: Error | null) => void) =>
    users.has(localPart(address)) ? cb() : cb(smtpError(550, `5.1.1 <${address.address}>: Recipient address rejected: User unknown in local recipient table`));
  return (address, _session, cb) => {
    peer.rcptTo.push(address.address);
    switch (peer.behaviour) {
      case 'catch_all':
        return cb();
      case 'greylist': {
        const key = address.address.toLowerCase();
        if (!seen.has(key)) {
          seen.add(key);
          return cb(smtpError(451, '4.7.1 Greylisted, please try again later'));
        }
        return strict(address, cb);
      }
      case 'full':
        return users.has(localPart(address)) ? cb(smtpError(552, '5.2.2 Mailbox full: quota exceeded')) : strict(address, cb);
      case 'disabled':
        return users.has(localPart(address)) ? cb(smtpError(550, '5.2.1 Mailbox disabled, not accepting messages')) : strict(address, cb);
      case 'policy':
        return cb(smtpError(554, '5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org'));
      default:
        return strict(address, cb);
    }
  };
}

function listenServer(server: net.Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

async function startOne(spec: PeerSpec, port: number, peer: SmtpPeer): Promise<Listening> {
  const users = new Set((spec.users ?? []).map((u) => u.toLowerCase()));
  if (spec.behaviour === 'silent' || spec.behaviour === 'drop') {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      peer.connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      if (spec.behaviour === 'drop') {
        socket.write(`220 ${spec.host} ESMTP ready\r\n`);
        socket.once('data', () => socket.destroy());
      }
    });
    await listenServer(server, spec.host, port);
    return {
      close: () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          server.close(() => resolve());
        }),
    };
  }

  const server = new SMTPServer({
    name: `mx.${spec.behaviour}.peer.test`,
    authOptional: true,
    // smtp-server would otherwise reverse-resolve every client through the system resolver: off-machine traffic.
    disableReverseLookup: true,
    disabledCommands: spec.behaviour === 'strict' ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    logger: false,
    // Enhanced codes are written into each reply text by rcptHandler, exactly as the scenario needs them.
    hideENHANCEDSTATUSCODES: true,
    socketTimeout: 10_000,
    closeTimeout: 1_000,
    onConnect(session, cb) {
      peer.connections++;
      if (spec.behaviour === 'banner_421') return cb(smtpError(421, `mx.${spec.behaviour}.peer.test Service not available, closing transmission channel`));
      return cb();
    },
    onMailFrom(address, session, cb) {
      peer.mailFrom.push(address.address);
      if (session.hostNameAppearsAs) peer.heloNames.push(session.hostNameAppearsAs);
      cb();
    },
    onRcptTo: rcptHandler(peer, users),
    onData(stream, _session, cb) {
      stream.resume();
      stream.on('end', () => cb(smtpError(554, '5.7.0 This test peer takes no mail')));
    },
  });
  server.on('error', () => undefined);
  await listenServer(server.server, spec.host, port);
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function freePort(host: string): Promise<number> {
  const probe = net.createServer();
  await listenServer(probe, host, 0);
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Starts every peer on the same port (each on its own address); retries with another port on a clash. */
export async function startSmtpPeers(specs: PeerSpec[]): Promise<SmtpPeerGroup> {
  if (new Set(specs.map((s) => s.host)).size !== specs.length) throw new Error('each peer needs its own address');
  let lastError: unknown;
  for (let attempt = 0; attempt < 10; attempt++) {
    const port = await freePort(specs[0]?.host ?? '127.0.0.1');
    const started: Listening[] = [];
    const peers = new Map<string, SmtpPeer>();
    try {
      for (const spec of specs) {
        const peer: SmtpPeer = { host: spec.host, behaviour: spec.behaviour, connections: 0, heloNames: [], mailFrom: [], rcptTo: [] };
        started.push(await startOne(spec, port, peer));
        peers.set(spec.host, peer);
      }
      return {
        port,
        peers,
        connections: () => [...peers.values()].reduce((n, p) => n + p.connections, 0),
        stop: async () => {
          await Promise.all(started.map((s) => s.close()));
        },
      };
    } catch (err) {
      lastError = err;
      await Promise.all(started.map((s) => s.close()));
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
  throw lastError;
}
