/** The two routers: the researcher API and the sandbox's control routes. */
import { Router } from '../router';
import { accountRoutes } from './account';
import { controlRoutes } from './control';
import { fileRoutes } from './files';
import { keyRoutes } from './keys';
import { messageRoutes } from './messages';
import { programRoutes } from './programs';
import { reportRoutes } from './reports';
import { schemaRoutes } from './schema';

export function apiRouter(): Router {
  return new Router().add(
    ...programRoutes,
    ...reportRoutes,
    ...fileRoutes,
    ...messageRoutes,
    ...accountRoutes,
    ...keyRoutes,
    ...schemaRoutes,
  );
}

export const controlRouter = (): Router => new Router().add(...controlRoutes);
