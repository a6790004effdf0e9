import { describe, expect, it } from 'vitest';
import { classpathFrom, listeningPort } from './mongo-java-server.ts';

describe('mongo-java-server start-up lines', () => {
  it('reads the classpath herald-infra printed, and fails loudly without one', () => {
    expect(classpathFrom('MONGO_JAVA_SERVER_CLASSPATH=/c/classes:/c/libs/*\n')).toBe('/c/classes:/c/libs/*');
    expect(() => classpathFrom('herald-infra: error: mvn failed\n')).toThrow(/printed no classpath/);
  });

  it('reads the port once the launcher says it listens, not before', () => {
    expect(listeningPort('SLF4J(W): a warning\n')).toBeUndefined();
    expect(listeningPort('listening 127.0.0.1:40')).toBeUndefined();
    expect(listeningPort('SLF4J(W): a warning\nlistening 127.0.0.1:40123\n')).toBe(40123);
  });
});
