import { useTitle } from '../components/layout.tsx';

export function NotFound() {
  useTitle('Not found');
  return (
    <section>
      <h1>Not found</h1>
      <p>
        No screen here. <a href="/console/">Go to the overview</a>.
      </p>
    </section>
  );
}
