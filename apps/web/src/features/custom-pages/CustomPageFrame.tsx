/**
 * The host of a custom page (docs/custom-pages.md, docs/decisions/custom-pages.md): an iframe with
 * `sandbox="allow-scripts"` only — never with allow-same-origin, which would let the page reach the console — fed
 * with the device's points by postMessage: the latest of every key when the frame loads or asks (`tessera:ready`),
 * then each live message.
 *
 * Messages from the page are accepted only when `event.source` is this iframe's window. The origin cannot be the
 * check: a sandboxed document's origin is opaque, so `event.origin` is the string "null" for every sandboxed frame
 * (and any page could be framed elsewhere); the window identity is unforgeable. For the same reason the host posts
 * with target origin "*": an opaque origin matches no other value. What it posts is only what the viewer is
 * already allowed to see of that device.
 */
import { CUSTOM_PAGE_MAX_HEIGHT_PX } from '@tessera/contracts';
import { Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useLiveDevice } from '../../lib/live';
import { usePageTwin } from './api';
import { mergeLatest, pointsOfTwin, readInbound, telemetryMessage, type TPageDevice, type TPagePoint } from './model/pageMessages';

/** Frame height until the page asks for another, in CSS pixels. */
const DEFAULT_HEIGHT_PX = 480;
const MIN_HEIGHT_PX = 120;

interface TProps {
  /** The page's view URL (GET custom-page) and when it stops opening (epoch ms). */
  viewUrl: string;
  viewExpiresAt: number;
  /** The page title, the frame's accessible name. */
  title: string;
  /** The device whose data the page receives; none (a project without devices) sends nothing. */
  device: TPageDevice | null;
}

/** The newest point per key of one device. */
interface TLatest {
  tangramId?: string;
  points: Map<string, TPagePoint>;
}

/** The latest points of device `id` held in `store`; a new device starts from nothing. */
function pointsFor(store: { current: TLatest }, id: string | undefined): Map<string, TPagePoint> {
  if (store.current.tangramId !== id) store.current = { tangramId: id, points: new Map() };
  return store.current.points;
}

/** The sandboxed frame and its message channel. */
export function CustomPageFrame({ viewUrl, viewExpiresAt, title, device }: TProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  // The URL the frame shows: a new usable URL (a new file) replaces it; an expired one is never loaded — the query,
  // stale by then, is already fetching a fresh one — and a URL expiring after it loaded stays (it is checked once).
  const [src, setSrc] = useState<string | null>(null);
  if (viewUrl !== src && viewExpiresAt > Date.now()) setSrc(viewUrl);
  const [height, setHeight] = useState(DEFAULT_HEIGHT_PX);
  const tangramId = device?.tangram_id;
  const twin = usePageTwin(tangramId);
  const latest = useRef<TLatest>({ points: new Map() });
  // Handlers registered once read the current props through this ref.
  const channel = useRef({ device, post: (_list: readonly TPagePoint[]) => {}, snapshot: () => {} });
  channel.current.device = device;
  channel.current.post = (list) => {
    const target = frame.current?.contentWindow;
    if (target && channel.current.device) target.postMessage(telemetryMessage(channel.current.device, list), '*');
  };
  channel.current.snapshot = () => channel.current.post([...pointsFor(latest, tangramId).values()]);

  useEffect(() => {
    if (!tangramId) return;
    mergeLatest(pointsFor(latest, tangramId), pointsOfTwin(twin.data));
    channel.current.snapshot();
  }, [tangramId, twin.data]);
  useLiveDevice(tangramId, (message) => {
    mergeLatest(pointsFor(latest, tangramId), message.list);
    channel.current.post(message.list);
  });

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      const request = readInbound(event.data);
      if (request?.type === 'tessera:ready') channel.current.snapshot();
      if (request?.type === 'tessera:resize') setHeight(Math.min(CUSTOM_PAGE_MAX_HEIGHT_PX, Math.max(MIN_HEIGHT_PX, request.height)));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  if (!src) return <Spin data-testid="custom-page-frame-loading" />;
  return (
    <iframe
      ref={frame}
      src={src}
      title={title}
      sandbox="allow-scripts"
      referrerPolicy="no-referrer"
      onLoad={() => channel.current.snapshot()}
      style={{ width: '100%', height, border: '1px solid rgba(5, 5, 5, 0.06)', borderRadius: 8, background: '#fff' }}
      data-testid="custom-page-frame"
    />
  );
}
