import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { INFRA_SCRIPT } from '@herald/local-infra';

/**
 * mongo-java-server (infra/mongo-java-server): an in-memory server speaking
 * the MongoDB wire protocol, on which tests run the MongoDB store adapter
 * (no mongod here; the FerretDB of the global setup gets the FerretDB one).
 * What it lacks: infra/README.md, "mongo-java-server".
 */
export interface MongoJavaServer {
  /** `mongodb://127.0.0.1:<port>/` */
  url: string;
  /** Everything it printed so far (its warnings and errors), for failure messages. */
  output(): string;
  /** Stops it (its data goes with it) and resolves once it exited. */
  close(): Promise<void>;
}

// The whole line: output arrives in chunks, and a port cut short is another port.
const READY = /^listening 127\.0\.0\.1:(\d+)\r?\n/m;

/** The classpath `herald-infra install-mongo-java-server` printed. */
export function classpathFrom(stdout: string): string {
  const match = /^MONGO_JAVA_SERVER_CLASSPATH=(.+)$/m.exec(stdout);
  if (match === null) throw new Error(`herald-infra install-mongo-java-server printed no classpath:\n${stdout}`);
  return match[1]!;
}

/** The port of a `listening 127.0.0.1:<port>` line, once printed. */
export function listeningPort(output: string): number | undefined {
  const match = READY.exec(output);
  return match === null ? undefined : Number(match[1]);
}

/** Installs it if needed (cached), starts one on a free loopback port and resolves once it accepts connections. */
export async function startMongoJavaServer(timeoutMs = 60_000): Promise<MongoJavaServer> {
  const { stdout } = await promisify(execFile)(INFRA_SCRIPT, ['install-mongo-java-server'], { timeout: 600_000 });
  const child = spawn(
    'java',
    // A small heap and C1 only: the tests' data are small and the run is short.
    ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-XX:+ExitOnOutOfMemoryError', '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn', '-cp', classpathFrom(stdout), 'HeraldMongoJavaServer', '0'],
    // Its stdin is a pipe: the server stops when it closes, so it ends with this process whatever happens.
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const port = await new Promise<number>((resolveReady, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mongo-java-server did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = listeningPort(output);
      if (found !== undefined) {
        clearTimeout(timer);
        resolveReady(found);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`mongo-java-server exited before it was ready:\n${output}`));
    });
  });
  return {
    url: `mongodb://127.0.0.1:${port}/`,
    output: () => output,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
