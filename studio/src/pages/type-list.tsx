import { can, useBucket } from '../bucket';
import { href, Link, navigate } from '../router';
import { PageHeader } from '../ui';

export function TypeList() {
  const bucket = useBucket();
  return (
    <>
      <PageHeader title="Object types">
        {can.editTypes(bucket) ? (
          <button
            type="button"
            class="primary"
            onClick={() => {
              navigate(href('b', bucket.slug, 'types', 'new'));
            }}
          >
            New Object type
          </button>
        ) : null}
      </PageHeader>
      {bucket.types.length === 0 ? <p>No Object types yet.</p> : null}
      <table class="list">
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Slug</th>
            <th scope="col">Metafields</th>
          </tr>
        </thead>
        <tbody>
          {bucket.types.map((t) => (
            <tr key={t.slug}>
              <td>
                {can.editTypes(bucket) ? (
                  <Link to={href('b', bucket.slug, 'types', t.slug)} aria-label={`Edit ${t.title}`}>
                    {t.emoji ? `${t.emoji} ` : ''}
                    {t.title}
                  </Link>
                ) : (
                  t.title
                )}
              </td>
              <td>
                <code>{t.slug}</code>
              </td>
              <td>{t.metafields.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
