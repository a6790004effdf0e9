import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, Route, Router } from 'preact-iso';
import { apiKey, onSessionChange } from './api/session.ts';
import { Layout } from './components/layout.tsx';
import { screen } from './components/lazy-screen.tsx';
import { SignIn } from './screens/sign-in.tsx';

// Code split by route: the sign-in page loads only this entry; each screen is fetched when first visited.
const Overview = screen(() => import('./screens/overview.tsx').then((m) => m.Overview));
const Notifications = screen(() => import('./screens/notifications.tsx').then((m) => m.Notifications));
const Report = screen(() => import('./screens/report.tsx').then((m) => m.Report));
const Composer = screen(() => import('./screens/composer.tsx').then((m) => m.Composer));
const Devices = screen(() => import('./screens/devices.tsx').then((m) => m.Devices));
const DevicePage = screen(() => import('./screens/device-page.tsx').then((m) => m.DevicePage));
const Topics = screen(() => import('./screens/topics.tsx').then((m) => m.Topics));
const Webhooks = screen(() => import('./screens/webhooks.tsx').then((m) => m.Webhooks));
const Settings = screen(() => import('./screens/settings.tsx').then((m) => m.Settings));
const NotFound = screen(() => import('./screens/not-found.tsx').then((m) => m.NotFound));
const Operator = screen(() => import('./screens/operator.tsx').then((m) => m.Operator));
const ExplainReach = screen(() => import('./screens/explain.tsx').then((m) => m.ExplainReach));
const Segments = screen(() => import('./screens/segments.tsx').then((m) => m.Segments));
const Templates = screen(() => import('./screens/templates.tsx').then((m) => m.Templates));
const TemplateEdit = screen(() => import('./screens/template-edit.tsx').then((m) => m.TemplateEdit));
const SegmentEdit = screen(() => import('./screens/segment-edit.tsx').then((m) => m.SegmentEdit));

function App() {
  const [signedIn, setSignedIn] = useState(apiKey() !== undefined);
  useEffect(() => onSessionChange(() => setSignedIn(apiKey() !== undefined)), []);
  // The operator's page has a sign-in of its own (the admin token), apart from the project key's.
  if (/^\/console\/operator\/?$/.test(window.location.pathname)) {
    return (
      <LocationProvider scope="/console">
        <ErrorBoundary>
          <Operator />
        </ErrorBoundary>
      </LocationProvider>
    );
  }
  // Signed out: the sign-in form at whatever URL was asked, which shows once signed in.
  if (!signedIn) return <SignIn />;
  return (
    <LocationProvider scope="/console">
      <Layout>
        <ErrorBoundary>
          <Router>
            <Route path="/console" component={Overview} />
            <Route path="/console/notifications" component={Notifications} />
            <Route path="/console/notifications/:id" component={Report} />
            <Route path="/console/notifications/:id/explain" component={ExplainReach} />
            <Route path="/console/compose" component={Composer} />
            <Route path="/console/devices" component={Devices} />
            <Route path="/console/devices/:id" component={DevicePage} />
            <Route path="/console/topics" component={Topics} />
            <Route path="/console/segments" component={Segments} />
            <Route path="/console/segments/:id" component={SegmentEdit} />
            <Route path="/console/templates" component={Templates} />
            <Route path="/console/templates/:id" component={TemplateEdit} />
            <Route path="/console/webhooks" component={Webhooks} />
            <Route path="/console/settings" component={Settings} />
            <Route default component={NotFound} />
          </Router>
        </ErrorBoundary>
      </Layout>
    </LocationProvider>
  );
}

render(<App />, document.getElementById('app')!);
