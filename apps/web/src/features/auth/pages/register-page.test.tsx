import { describe, expect, it } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import RegisterPage from './register-page';

function renderRegister() {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <RegisterPage />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('register form: password reasons as the user types (issue #14 finding 9)', () => {
  it('says why a password would be refused before the form is sent', async () => {
    renderRegister();
    const user = userEvent.setup();
    expect(screen.getByText(/At least 10 characters/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Username', { exact: false }), 'harborlight');
    const password = screen.getByLabelText(/^Password/);
    await user.type(password, 'short');
    expect(screen.getByText('Password must be at least 10 characters')).toBeInTheDocument();
    await user.clear(password);
    await user.type(password, 'aaaaaaaaa1');
    expect(screen.getByText(/repeats too few characters/)).toBeInTheDocument();
    await user.clear(password);
    await user.type(password, 'harborlight!!');
    expect(screen.getByText(/must not contain your username/)).toBeInTheDocument();
    await user.clear(password);
    await user.type(password, 'qwertyuiop1');
    expect(await screen.findByText(/too common/)).toBeInTheDocument();
    await user.clear(password);
    await user.type(password, 'tulip orbit kettle');
    expect(screen.getByText(/At least 10 characters/)).toBeInTheDocument();
  });
});
