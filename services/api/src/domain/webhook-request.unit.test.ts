import { describe, expect, it } from 'vitest';
import { webhookUrlProblems } from './webhook-request.ts';

const IP_HOST = 'url must name its host, not an IP address (a loopback address only in local mode)';

describe('webhookUrlProblems', () => {
  it('refuses an IP address as host, in every spelling the URL parser knows (issue 44, item 7)', () => {
    for (const url of [
      'https://93.184.216.34/in',
      'https://169.254.169.254/latest/meta-data',
      'https://[::7f00:1]/in',
      'https://[::a9fe:a9fe]/in',
      'https://[::ffff:10.0.0.1]/in',
      'https://[64:ff9b::a9fe:a9fe]/in',
      'https://[2606:2800:220:1:248:1893:25c8:1946]/in',
      'https://0x7f.1/in',
      'https://2130706433/in',
      'https://1.2.3.4./in',
    ]) {
      expect({ url, problems: webhookUrlProblems(url, false) }).toEqual({ url, problems: [IP_HOST] });
    }
  });

  it('in local mode, allows only loopback addresses as host', () => {
    for (const url of ['http://127.0.0.1:8080/in', 'https://127.0.0.2/in', 'http://[::1]:9000/in', 'http://localhost:9000/in']) {
      expect({ url, problems: webhookUrlProblems(url, true) }).toEqual({ url, problems: [] });
    }
    expect(webhookUrlProblems('https://10.0.0.1/in', true)).toEqual([IP_HOST]);
    expect(webhookUrlProblems('https://[::ffff:127.0.0.1]/in', true)).toEqual([IP_HOST]);
    expect(webhookUrlProblems('http://127.0.0.1:8080/in', false)).toEqual(['url must use https (http only to a loopback host in local mode)', IP_HOST]);
  });

  it('leaves host names alone (their addresses are checked at every delivery)', () => {
    expect(webhookUrlProblems('https://hooks.example.com/in', false)).toEqual([]);
    expect(webhookUrlProblems('https://1.2.3.4.example.com/in', false)).toEqual([]);
  });
});
