/** The device detail layout hands its loaded device to the tab pages through the router outlet context. */
import type { TDeviceDetail } from '@tessera/contracts';
import { useOutletContext } from 'react-router';

/** Outlet context of the device detail layout. */
export interface TDeviceOutlet {
  device: TDeviceDetail;
}

/** The device of the current detail page (only inside the detail layout's tabs). */
export function useDeviceOutlet(): TDeviceOutlet {
  return useOutletContext<TDeviceOutlet>();
}
