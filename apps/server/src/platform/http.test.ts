import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  // A route that fails unexpectedly, to see what a client gets.
  t.app.get('/api/test/boom', { config: { public: true } }, async () => {
    throw new Error('database password is hunter2');
  });
});
afterAll(async () => {
  await t?.close();
});

describe('the HTTP platform', () => {
  it('answers unknown API paths with the 404 JSON shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toMatchObject({
      status: 404,
      key: 'error.not_found',
      params: {},
      message: 'Ο πόρος που ζητήσατε δεν βρέθηκε',
    });
    const post = await t.app.inject({ method: 'POST', url: '/api/nothing/here', payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it('hides unexpected errors behind 500 "contact the administrator" with a request id', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/test/boom',
      headers: { 'accept-language': 'en' },
    });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toMatchObject({
      status: 500,
      key: 'error.server',
      message: 'A system error occurred. Contact the system administrator.',
    });
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toContain('.ts:');
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().key).toBe('error.bad_data');
  });

  it('sends the security headers on every response and no CORS allowance', async () => {
    for (const url of ['/api/health', '/api/does-not-exist', '/api/installation/env']) {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: { origin: 'https://evil.example' },
      });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('publishes the installation facts without sign-in', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/installation/env' });
    expect(response.json()).toEqual({
      appName: 'Protocol',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      defaultLanguage: 'el',
      languages: ['el', 'en'],
      sso: { enabled: false, logoutUrl: null, clientId: null },
      mail: { enabled: false },
      notificationPollMs: 60_000,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({
      status: 'ok',
      database: 'ok',
    });
  });

  it('serves the OpenAPI document generated from the contracts', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/account/login',
        '/api/account/logout',
        '/api/users/authenticatedUser',
        '/api/users/{id}/change_password',
        '/api/general_settings',
        '/api/installation/env',
        '/api/health',
      ]),
    );
    const login = doc.paths['/api/account/login'].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['username', 'password']);
  });

  it('answers 404 for single sign-on when it is not configured', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/account/sso/authorize' });
    expect(response.statusCode).toBe(404);
    expect(response.json().key).toBe('error.sso_not_configured');
  });
});

describe('general settings', () => {
  it('lists the company’s settings with gen.deya_aa, and 404 for a company the operator is not in', async () => {
    const headers = await t.login('admin', ADMIN_PASSWORD);
    const response = await t.app.inject({ method: 'GET', url: '/api/general_settings', headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ parName: 'gen.deya_aa', parValue: '1' })]),
    );
    const op = await t.login('mpapadopoulou', 'Demo-2026!');
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/general_settings?companyid=424242',
      headers: op,
    });
    expect(other.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/general_settings' })).statusCode).toBe(401);
  });
});
