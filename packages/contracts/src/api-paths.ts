/** HTTP paths of the browser API, relative to the server origin. */
export const API = {
  register: '/api/auth/register',
  registerConfirm: '/api/auth/register/confirm',
  login: '/api/auth/login',
  refresh: '/api/auth/refreshToken',
  logout: '/api/auth/logout',
  forgotPassword: '/api/auth/forgot-password',
  resetPassword: '/api/auth/reset-password',
  xsrf: '/api/auth/xsrf',
  /** A proof-of-work challenge (ALTCHA); its solution goes in the X-Altcha header (CAPTCHA_HEADER). */
  captcha: '/api/auth/captcha',
  me: '/api/me',
  mePassword: '/api/me/password',
  mePicture: '/api/me/picture',
  mePictureUpload: '/api/me/picture/fileUpload',
  meEvents: '/api/me/events',
} as const;

/** The request header that carries the solved ALTCHA challenge (base64 JSON, as the widget makes it). */
export const CAPTCHA_HEADER = 'x-altcha';
