/**
 * antd's App (the message, modal and notification of `App.useApp()`) around the pages below it: the logged-in layout
 * and the sign-in pages other than /login, which uses none of them and so does not download them (docs/web-bundle.md).
 */
import { App as AntApp } from 'antd';
import { Outlet } from 'react-router';

/** The pages below, inside antd's App. */
export default function AntAppOutlet() {
  return (
    <AntApp>
      <Outlet />
    </AntApp>
  );
}
