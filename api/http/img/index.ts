export { imageRoutes, type ImageRouteOptions } from './image-routes.js';
