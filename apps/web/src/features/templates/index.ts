/** The templates feature's public api: what other features may use (eslint blocks deeper imports). */
export { getTemplates, templatesQueryKey, useTemplates } from './api/get-templates';
