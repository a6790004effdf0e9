import { useState } from 'preact/hooks';
import { api, dataOf, messagesOf } from '../api/client.ts';
import { useTitle } from '../components/layout.tsx';
import { Errors, Loading } from '../components/ui.tsx';
import { useLoad } from '../components/use-load.ts';
import { rememberProjectZone } from '../components/zone-toggle.tsx';
import { zoneChoice } from '../lib/format.ts';

/** The project's own settings (GET/PATCH /api/v1/project): its time zone. */
export function Settings() {
  useTitle('Settings');
  const project = useLoad(async () => dataOf(await api.GET('/api/v1/project')).data, []);
  return (
    <section>
      <h1>Settings</h1>
      <Errors errors={project.errors} onRetry={project.reload} />
      {project.data === undefined ? <Loading when={project.loading} /> : <ZoneForm name={project.data.name} zone={project.data.timezone} />}
    </section>
  );
}

function ZoneForm({ name, zone }: { name: string; zone: string }) {
  const [value, setValue] = useState(zone);
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors(undefined);
    setDone('');
    try {
      const saved = dataOf(await api.PATCH('/api/v1/project', { body: { timezone: value.trim() } })).data;
      // Times shown in the project's zone follow it at once.
      if (rememberProjectZone(saved.timezone) && zoneChoice() === 'project') window.location.reload();
      setValue(saved.timezone);
      setDone(`Saved: the project’s time zone is ${saved.timezone}.`);
    } catch (error) {
      setErrors(messagesOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="zone-heading" data-testid="project-zone">
      <h2 id="zone-heading">Time zone of {name}</h2>
      <div class="field">
        <label for="project-zone">Project time zone (IANA name, e.g. Europe/Paris)</label>
        <input
          id="project-zone"
          type="text"
          value={value}
          maxLength={64}
          autocomplete="off"
          spellcheck={false}
          aria-invalid={errors === undefined ? undefined : 'true'}
          aria-describedby="project-zone-hint project-zone-errors"
          onInput={(event) => setValue(event.currentTarget.value)}
        />
        <p class="hint" id="project-zone-hint">
          The zone the team shares: the switch at the top shows every time in it instead of your browser’s, and local-time sends use it for devices that registered no zone.
        </p>
      </div>
      <div id="project-zone-errors">
        <Errors errors={errors} />
      </div>
      <button type="submit" disabled={busy || value.trim() === ''}>
        Save time zone
      </button>
      <p role="status">{done}</p>
    </form>
  );
}
