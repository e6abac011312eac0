import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { Test } from 'supertest';

let ipCounter = 0;

/** A distinct client address per request, so per-IP rate limits only bite the tests that aim at them. */
function freshIp(): string {
  ipCounter++;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Api {
  as(token: string | undefined): Api;
  from(ip: string): Api;
  get(path: string): Test;
  post(path: string, body?: object | string): Test;
  put(path: string, body?: object | string): Test;
  patch(path: string, body?: object | string): Test;
  delete(path: string): Test;
}

/** `api(app).as(token).post(path, body)`: supertest with a bearer token and a client address. */
export function api(app: INestApplication, token?: string, ip?: string): Api {
  const send = (method: Method, path: string, body?: object | string): Test => {
    let req = request(app.getHttpServer())
      [method](path)
      .set('X-Forwarded-For', ip ?? freshIp());
    if (token) req = req.set('Authorization', `Bearer ${token}`);
    if (typeof body === 'string') req = req.set('Content-Type', 'application/json').send(body);
    else if (body !== undefined) req = req.send(body);
    return req;
  };
  return {
    as: (t) => api(app, t, ip),
    from: (address) => api(app, token, address),
    get: (path) => send('get', path),
    post: (path, body) => send('post', path, body),
    put: (path, body) => send('put', path, body),
    patch: (path, body) => send('patch', path, body),
    delete: (path) => send('delete', path),
  };
}
