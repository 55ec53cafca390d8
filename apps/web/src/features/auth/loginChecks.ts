/**
 * The login page's schemas, loaded at the form's first check or when a QR code's link is opened (LoginPage.tsx): they
 * bring zod, which drawing the login form does not need.
 */
export { ZLoginRequest, ZQrSessionId } from '@tessera/contracts';
