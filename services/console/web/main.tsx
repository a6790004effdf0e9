import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { LocationProvider, Route, Router } from 'preact-iso';
import { apiKey, onSessionChange } from './api/session.ts';
import { Layout } from './components/layout.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { Overview } from './screens/overview.tsx';
import { Notifications } from './screens/notifications.tsx';
import { Report } from './screens/report.tsx';
import { Composer } from './screens/composer.tsx';
import { Devices } from './screens/devices.tsx';
import { DevicePage } from './screens/device-page.tsx';
import { Topics } from './screens/topics.tsx';
import { Webhooks } from './screens/webhooks.tsx';
import { NotFound } from './screens/not-found.tsx';
import { Operator } from './screens/operator.tsx';
import { ExplainReach } from './screens/explain.tsx';

function App() {
  const [signedIn, setSignedIn] = useState(apiKey() !== undefined);
  useEffect(() => onSessionChange(() => setSignedIn(apiKey() !== undefined)), []);
  // The operator's page has a sign-in of its own (the admin token), apart from the project key's.
  if (/^\/console\/operator\/?$/.test(window.location.pathname)) return <Operator />;
  // Signed out: the sign-in form at whatever URL was asked, which shows once signed in.
  if (!signedIn) return <SignIn />;
  return (
    <LocationProvider scope="/console">
      <Layout>
        <Router>
          <Route path="/console" component={Overview} />
          <Route path="/console/notifications" component={Notifications} />
          <Route path="/console/notifications/:id" component={Report} />
          <Route path="/console/notifications/:id/explain" component={ExplainReach} />
          <Route path="/console/compose" component={Composer} />
          <Route path="/console/devices" component={Devices} />
          <Route path="/console/devices/:id" component={DevicePage} />
          <Route path="/console/topics" component={Topics} />
          <Route path="/console/webhooks" component={Webhooks} />
          <Route default component={NotFound} />
        </Router>
      </Layout>
    </LocationProvider>
  );
}

render(<App />, document.getElementById('app')!);
