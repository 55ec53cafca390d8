/** Auth calls of the console (spec §7 `/authorization/v1`), as TanStack Query mutations over the one client. */
import { useMutation } from '@tanstack/react-query';
import {
  paths,
  type TChangePasswordRequest,
  type TLoginRequest,
  type TRegisterRequest,
  type TResetPasswordRequest,
  type TTokenResponse,
} from '@tessera/contracts';
import type { z } from 'zod';
import type { ZForgotPasswordRequest, ZVerifyEmailRequest } from '@tessera/contracts';
import { http } from '../../lib/http';
import { getSession, saveTokens } from '../../lib/session';

/** POST login; on 200 stores both tokens (§4) and answers the response (the page reads `set_pwd_flag`). */
export function useLogin() {
  return useMutation({
    mutationFn: async (body: TLoginRequest) => {
      const res = await http.post<TTokenResponse>(paths.login, body, { quiet: true });
      saveTokens(res.token, res.refresh_token);
      return res;
    },
  });
}

/** POST verify-email with purpose `register`: mails a sign-up code to the address (whether or not it has an account). */
export function useSendRegisterCode() {
  return useMutation({
    mutationFn: (body: Omit<z.input<typeof ZVerifyEmailRequest>, 'purpose'>) =>
      http.post<void>(paths.verifyEmail, { ...body, purpose: 'register' }, { quiet: true }),
  });
}

/**
 * POST register/aiot with the mailed code; the answer is a logged-in token pair, stored as a login's is (§4), and
 * returned (the page reads `set_pwd_flag` as after a login).
 */
export function useRegister() {
  return useMutation({
    mutationFn: async (body: TRegisterRequest) => {
      const res = await http.post<TTokenResponse>(paths.register, body, { quiet: true });
      saveTokens(res.token, res.refresh_token);
      return res;
    },
  });
}

/** POST forgot-pwd: mails a reset code. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: z.input<typeof ZForgotPasswordRequest>) => http.post<void>(paths.forgotPwd, body, { quiet: true }),
  });
}

/** POST reset-pwd with the mailed code. */
export function useResetPassword() {
  return useMutation({ mutationFn: (body: TResetPasswordRequest) => http.post<void>(paths.resetPwd, body, { quiet: true }) });
}

/**
 * PUT pwd: old → new (profile and /setpwd). Sends this console's refresh token, so the server ends every other
 * session of the account but this one.
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: TChangePasswordRequest) =>
      http.put<void>(paths.pwd, { ...body, refresh_token: getSession().refreshToken ?? undefined }, { quiet: true }),
  });
}

/** Query keys of the auth screens. */
export const authKeys = {
  qrSession: (sessionId: string) => ['auth', 'qr-session', sessionId] as const,
};
