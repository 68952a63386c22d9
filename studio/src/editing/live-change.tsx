import type { FeedObject } from '../live-feed';

/** Someone else saved the Object open here (heard on the change feed): who, when, and a way to take it. */
export function LiveChange({ change, onReload }: { change: FeedObject; onReload: () => void }) {
  const who = change.modified_by ? `user ${change.modified_by}` : 'someone using the Bucket key';
  const when = change.modified_at ? new Date(change.modified_at).toLocaleString() : 'just now';
  return (
    <div class="notice live-change" role="alert">
      <span>
        This Object was changed by {who} at {when}. Saving now would conflict with it.
      </span>{' '}
      <button type="button" onClick={onReload}>
        Reload
      </button>
    </div>
  );
}
