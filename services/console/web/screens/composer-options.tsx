import type { Draft, FieldProblems } from '../lib/draft.ts';
import { Field, type bind } from './composer-fields.tsx';

type Bind = (key: Parameters<typeof bind>[3]) => ReturnType<typeof bind>;

/** Campaign control: pace, max duration and lane, as the API takes them (docs/guides/campaign-control.md). */
export function DeliveryFields({ draft, set, problems, b }: { draft: Draft; set: (patch: Partial<Draft>) => void; problems: FieldProblems; b: Bind }) {
  return (
    <fieldset>
      <legend>Delivery</legend>
      <div class="grid">
        <Field id="rate_per_minute" label="Pace (pushes per minute)" problems={problems} hint="Empty: the project's default pace, else as fast as Herald goes. Can be changed while it sends.">
          <input type="text" inputMode="numeric" {...b('rate_per_minute')} />
        </Field>
        <Field id="max_duration" label="Max duration (minutes)" problems={problems} hint="What has not left by then is not sent (expired).">
          <input type="text" inputMode="numeric" {...b('max_duration')} />
        </Field>
        <Field id="priority_lane" label="Priority lane" problems={problems} hint="Transactional: express, never paced, no caps or quiet hours. Campaign: paced, capped, kept quiet.">
          <select id="f-priority_lane" value={draft.priority_lane} onChange={(event) => set({ priority_lane: event.currentTarget.value as Draft['priority_lane'] })}>
            <option value="">Decided by size</option>
            <option value="campaign">campaign</option>
            <option value="transactional">transactional</option>
          </select>
        </Field>
      </div>
    </fieldset>
  );
}

export function OptionFields({ draft, set, problems, b }: { draft: Draft; set: (patch: Partial<Draft>) => void; problems: FieldProblems; b: Bind }) {
  return (
    <>
      <fieldset>
        <legend>When</legend>
        {(
          [
            ['now', 'Now'],
            ['at', 'At a time'],
            ['local', "At a local time in each device's time zone"],
          ] as const
        ).map(([value, label]) => (
          <label key={value} class="radio">
            <input type="radio" name="schedule" value={value} checked={draft.schedule === value} onChange={() => set({ schedule: value })} /> {label}
          </label>
        ))}
        {draft.schedule === 'at' ? (
          <Field id="sendAt" label="Send at (your time zone)" problems={problems}>
            <input type="datetime-local" {...b('sendAt')} />
          </Field>
        ) : null}
        {draft.schedule === 'local' ? (
          <Field id="sendAtLocal" label="Send at, local time" problems={problems}>
            <input type="datetime-local" {...b('sendAtLocal')} />
          </Field>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>Options</legend>
        <div class="grid">
          <Field id="link_to" label="Link (deep link or URL)" problems={problems}>
            <input type="text" {...b('link_to')} />
          </Field>
          <Field id="image" label="Image (https URL)" problems={problems}>
            <input type="text" {...b('image')} />
          </Field>
          <Field id="badge" label="Badge" problems={problems}>
            <input type="text" inputMode="numeric" {...b('badge')} />
          </Field>
          <Field id="sound" label="Sound" problems={problems}>
            <input type="text" {...b('sound')} />
          </Field>
          <Field id="ttl" label="Time to live (seconds)" problems={problems}>
            <input type="text" inputMode="numeric" {...b('ttl')} />
          </Field>
          <Field id="priority" label="Priority" problems={problems}>
            <select id="f-priority" value={draft.priority} onChange={(event) => set({ priority: event.currentTarget.value as Draft['priority'] })}>
              <option value="">Provider default</option>
              <option value="high">high</option>
              <option value="normal">normal</option>
            </select>
          </Field>
          <Field id="collapse_id" label="Collapse id" problems={problems}>
            <input type="text" {...b('collapse_id')} />
          </Field>
          <Field id="group" label="Group" problems={problems}>
            <input type="text" {...b('group')} />
          </Field>
          <Field id="thread_id" label="Thread id" problems={problems}>
            <input type="text" {...b('thread_id')} />
          </Field>
          <Field id="category" label="Category" problems={problems}>
            <input type="text" {...b('category')} />
          </Field>
        </div>
        <label class="check">
          <input type="checkbox" checked={draft.content_available} onChange={(event) => set({ content_available: event.currentTarget.checked })} /> Silent (background) push
        </label>
        <label class="check">
          <input type="checkbox" checked={draft.mutable_content} onChange={(event) => set({ mutable_content: event.currentTarget.checked })} /> Mutable content (iOS extension)
        </label>
        <Field id="data" label="Data" problems={problems} hint="key=value lines, delivered to the app.">
          <textarea rows={2} {...b('data')} />
        </Field>
        <Field id="apns" label="Raw APNs JSON (merged last)" problems={problems}>
          <textarea rows={2} class="mono" {...b('apns')} />
        </Field>
        <Field id="fcm" label="Raw FCM JSON (merged last)" problems={problems}>
          <textarea rows={2} class="mono" {...b('fcm')} />
        </Field>
      </fieldset>
    </>
  );
}
