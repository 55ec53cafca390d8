/** The product name in the side bar, the phone's menu drawer and the phone's header. */
import { Link } from 'react-router';

/** The product name, linking to the default page; `compact` is the header's one-line size. */
export function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <Link
      to="/"
      style={{ display: 'block', padding: compact ? 0 : '18px 24px', fontWeight: 600, fontSize: compact ? 16 : 18, whiteSpace: 'nowrap' }}
    >
      Tessera IoT
    </Link>
  );
}
