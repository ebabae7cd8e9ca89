export { fileRoutes } from './file-routes.js';
