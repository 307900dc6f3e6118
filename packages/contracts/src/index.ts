export * from './errors';
export * from './auth';
export * from './messages';
export * from './api-paths';
export * from './sms-text';
