import { useState } from 'preact/hooks';
import { navigate, useLocation, href } from './router';
import { forgetCredential, loadCredential, type Credential } from './session';
import { SignIn } from './pages/sign-in';
import { BucketList } from './pages/bucket-list';
import { BucketShell } from './shell';
import { ShortcutsHelp } from './shortcuts-help';
import { SkipLink } from './ui';

/** Every page: the skip link first of all, the page, and the shortcuts help it may open. */
export function App() {
  return (
    <>
      <SkipLink />
      <Page />
      <ShortcutsHelp />
    </>
  );
}

function Page() {
  const [credential, setCredential] = useState<Credential | null>(loadCredential);
  const { segments } = useLocation();

  const signOut = () => {
    forgetCredential();
    setCredential(null);
    navigate(href(), true);
  };

  if (!credential) {
    return (
      <SignIn
        onSignedIn={(c) => {
          setCredential(c);
          navigate(c.mode === 'key' ? href('b', c.bucket, 'objects') : href(), true);
        }}
      />
    );
  }
  if (segments[0] === 'b' && segments[1]) {
    return <BucketShell key={segments[1]} slug={segments[1]} credential={credential} signOut={signOut} />;
  }
  if (credential.mode === 'key') {
    navigate(href('b', credential.bucket, 'objects'), true);
    return null;
  }
  return <BucketList credential={credential} signOut={signOut} />;
}
