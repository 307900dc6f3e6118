import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TEMPLATES_API } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf, fakeAdapter, type FakeAdapter } from '@/test/fake-adapter';
import { renderScreen as renderPage, signInForTest as signIn } from '@/test/render-page';
import { TemplateFormModal } from './template-form-modal';

let server: FakeAdapter;

beforeEach(() => {
  signIn();
  server = http.defaults.adapter = fakeAdapter((config) => {
    if (config.url === TEMPLATES_API.list && config.method === 'post') {
      const body = bodyOf(config) as { name: string; text: string };
      return { status: 201, data: { id: 't1', ...body, placeholders: [] } };
    }
    return { status: 404 };
  });
});

const saves = () => server.calls.filter((c) => c.url === TEMPLATES_API.list && c.method === 'post');

function renderForm() {
  renderPage(<TemplateFormModal opened template={null} onClose={() => undefined} />);
  return {
    name: screen.getByRole('textbox', { name: /Name/ }),
    text: screen.getByRole('textbox', { name: /Message/ }),
  };
}

describe('template form: the same length rule as the server', () => {
  it('shows the error while typing and does not save a text of more than 10 segments', async () => {
    const user = userEvent.setup();
    const { name, text } = renderForm();
    await user.type(name, 'Long');
    // 24 UCS-2 segments, as in the issue: the whole paste is kept (nothing is cut) and refused.
    const pasted = 'ж'.repeat(1600);
    fireEvent.change(text, { target: { value: pasted } });
    expect((text as HTMLTextAreaElement).value).toBe(pasted);
    expect(text).not.toHaveAttribute('maxlength');
    expect(await screen.findByText('The message is too long: 24 segments (at most 10)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(saves()).toHaveLength(0);
  });

  it('keeps a long paste whole (even past 1,600 characters) and says why it cannot be saved', async () => {
    const user = userEvent.setup();
    const { name, text } = renderForm();
    await user.type(name, 'Paste');
    const pasted = 'Hi {{name}}, '.repeat(150); // 1,950 characters, the cut used to fall mid-placeholder
    fireEvent.change(text, { target: { value: pasted } });
    expect((text as HTMLTextAreaElement).value).toBe(pasted);
    expect(await screen.findByText('The message is too long: more than 10 segments')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect(saves()).toHaveLength(0);
  });

  it('saves a text of exactly 10 segments', async () => {
    const user = userEvent.setup();
    const { name, text } = renderForm();
    await user.type(name, 'Ten');
    fireEvent.change(text, { target: { value: 'a'.repeat(1530) } });
    expect(screen.queryByText(/The message is too long/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(bodyOf(saves()[0])).toEqual({ name: 'Ten', text: 'a'.repeat(1530) });
  });
});
