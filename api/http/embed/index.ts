export { embedRoutes } from './embed-routes.js';
