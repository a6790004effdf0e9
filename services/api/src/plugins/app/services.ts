import fp from 'fastify-plugin';
import type { AppDeps } from '../../app-deps.ts';
import { IdempotencyStore } from '@herald/admin';
import type { Logger } from '@herald/log';
import { DeviceService } from '../../services/device-service.ts';
import { NotificationService } from '../../services/notification-service.ts';
import { TopicService } from '../../services/topic-service.ts';

/** Services are built once per app from the injected dependencies. */
export default fp<AppDeps>(
  async (fastify, deps) => {
    fastify.decorate('services', {
      devices: new DeviceService(deps),
      topics: new TopicService(deps),
      notifications: new NotificationService({ ...deps, idempotency: new IdempotencyStore(deps.db), logger: fastify.log as Logger }),
      admin: deps.admin,
      checkReady: deps.checkReady,
    });
  },
  { name: 'services' },
);
