import { useState } from 'preact/hooks';
import { navigate, useLocation, href } from './router';
import { forgetCredential, loadCredential, type Credential } from './session';
import { SignIn } from './pages/sign-in';
import { BucketList } from './pages/bucket-list';
import { BucketShell } from './shell';

export function App() {
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
