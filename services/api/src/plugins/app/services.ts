import fp from 'fastify-plugin';
import type { AppDeps } from '../../app-deps.ts';
import { DeviceService } from '../../services/device-service.ts';

/** Services are built once per app from the injected dependencies. */
export default fp<AppDeps>(
  async (fastify, deps) => {
    fastify.decorate('services', {
      devices: new DeviceService(deps),
      admin: deps.admin,
      checkReady: deps.checkReady,
    });
  },
  { name: 'services' },
);
