/** `GET /api/openapi.json`: the contract of the researcher routes. */
import { openapiDocument } from '@shared/api';
import type { Route } from '../router';

export const schemaRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/openapi.json',
    auth: 'user',
    handle: () => ({ status: 200, body: openapiDocument }),
  },
];
