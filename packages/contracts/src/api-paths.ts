/** HTTP paths of the browser API, relative to the server origin. */
export const API = {
  register: '/api/auth/register',
  login: '/api/auth/login',
  refresh: '/api/auth/refreshToken',
  logout: '/api/auth/logout',
  forgotPassword: '/api/auth/forgot-password',
  resetPassword: '/api/auth/reset-password',
  xsrf: '/api/auth/xsrf',
  me: '/api/me',
  mePassword: '/api/me/password',
  mePicture: '/api/me/picture',
  mePictureUpload: '/api/me/picture/fileUpload',
  meEvents: '/api/me/events',
} as const;
