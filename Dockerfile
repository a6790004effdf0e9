# One image for every Herald service; the command chooses which one runs.
# Node 24 runs the TypeScript sources directly (type stripping): no build step,
# except the console's static assets, built in a stage of their own (it needs
# the dev dependencies: Vite, openapi-typescript) and copied into the image.
FROM node:24-slim AS console
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs libs
COPY services services
RUN npm ci --ignore-scripts --no-audit --no-fund && node services/console/src/build/build.ts

FROM node:24-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY libs libs
COPY services services
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
# The API serves it at /console/.
COPY --from=console /app/services/console/dist services/console/dist
# Delivery's audience index (DELIVERY_INDEX_DIR in docker-compose.yml): a new volume takes this owner.
RUN mkdir -p /var/lib/herald/delivery && chown node:node /var/lib/herald/delivery
USER node
EXPOSE 3000
CMD ["node", "services/api/src/server.ts"]
