import { useBucket } from './bucket';
import { ObjectsHome, ObjectList } from './pages/object-list';
import { ObjectEditor } from './pages/object-editor';
import { TypeList } from './pages/type-list';
import { TypeEditor } from './pages/type-editor';
import { MediaPage } from './pages/media';
import { WebhooksPage } from './pages/webhooks';
import { UsersPage } from './pages/users';
import { NoAccess } from './no-access';
import { pageAllowed } from './permissions';

/** The page for a path below /studio/b/<slug>/. */
export function BucketRoutes({ section, rest }: { section: string; rest: string[] }) {
  const bucket = useBucket();
  const [first, second] = rest;
  // A page reached by URL that the role may not use says so, rather than offering a form the API refuses.
  if (!pageAllowed(bucket, section, rest)) return <NoAccess />;
  switch (section) {
    case 'objects': {
      if (!first) return <ObjectsHome />;
      const type = bucket.types.find((t) => t.slug === first);
      if (!type) return <p role="alert">There is no Object type {first} here.</p>;
      if (second)
        return <ObjectEditor key={`${type.slug}/${second}`} type={type} id={second === 'new' ? null : second} />;
      return <ObjectList key={type.slug} type={type} />;
    }
    case 'types':
      return first ? <TypeEditor key={first} slug={first === 'new' ? null : first} /> : <TypeList />;
    case 'media':
      return <MediaPage />;
    case 'webhooks':
      return <WebhooksPage id={first ?? null} />;
    case 'users':
      return <UsersPage />;
    default:
      return <p role="alert">No such page.</p>;
  }
}
