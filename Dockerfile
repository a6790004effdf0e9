# One image for every Herald service; the command chooses which one runs.
# Node 24 runs the TypeScript sources directly (type stripping): no build step.
FROM node:24-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY libs libs
COPY services services
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
USER node
EXPOSE 3000
CMD ["node", "services/api/src/server.ts"]
