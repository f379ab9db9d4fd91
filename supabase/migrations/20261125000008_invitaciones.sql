-- Oficina: invitaciones (SPEC §6). Un administrador da de alta a una persona en /usuarios: su
-- cuenta (auth.users, sin confirmar, sin contraseña) y su perfil nacen al invitarla; esta tabla
-- dice quién la invitó y cuándo se envió el último enlace. La invitación está pendiente mientras
-- la cuenta siga sin confirmar (docs/decisions/0013-invitations.md).
--
-- Solo el servidor (el propietario) la lee y la escribe: la pantalla la muestra a los
-- administradores. RLS activada y sin políticas: ningún rol de la API la ve.

create table public.invitaciones (
  usuario_id uuid primary key
    constraint invitaciones_usuario_id_fkey references public.usuarios (id) on delete cascade,
  invitada_por uuid
    constraint invitaciones_invitada_por_fkey references public.usuarios (id) on delete set null,
  creada_en timestamptz not null default now(),
  enviada_en timestamptz not null default now()
);

create index invitaciones_invitada_por_idx on public.invitaciones (invitada_por);

alter table public.invitaciones enable row level security;
revoke all on public.invitaciones from public, anon, authenticated;
grant all on public.invitaciones to service_role;
