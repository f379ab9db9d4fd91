-- Políticas de gasto: límites por categoría (y, si se quiere, por departamento) que no impiden
-- gastar, sino que piden un motivo. Un gasto que se sale de su política se envía igualmente con
-- un motivo, y quien lo aprueba ve el incumplimiento y el motivo antes de aprobar (panel y paso de
-- confirmación en bloque). La comprobación vive aquí, en enviar_gasto: los dos backends y todos
-- los caminos (formulario, en bloque, un viaje entero) la aplican.

-- ---------------------------------------------------------------------------------------------
-- Las políticas. La de un departamento sustituye entera, para sus gastos, a la general de la
-- categoría (la que no tiene departamento): no se mezclan límites de las dos.
-- ---------------------------------------------------------------------------------------------
create table public.politicas_gasto (
  id uuid primary key default gen_random_uuid(),
  categoria text not null references public.categorias_fiscales (categoria),
  departamento_id uuid references public.departamentos (id) on delete cascade,
  maximo_por_gasto numeric(12, 2)
    constraint politicas_gasto_maximo_por_gasto_check check (maximo_por_gasto > 0),
  maximo_por_dia numeric(12, 2)
    constraint politicas_gasto_maximo_por_dia_check check (maximo_por_dia > 0),
  maximo_por_mes numeric(12, 2)
    constraint politicas_gasto_maximo_por_mes_check check (maximo_por_mes > 0),
  justificante_desde numeric(12, 2)
    constraint politicas_gasto_justificante_desde_check check (justificante_desde >= 0),
  antiguedad_maxima integer
    constraint politicas_gasto_antiguedad_maxima_check check (antiguedad_maxima between 1 and 3650),
  creado_en timestamptz not null default now(),
  actualizado_en timestamptz not null default now(),
  version integer not null default 1,
  constraint politicas_gasto_algun_limite_check check (
    num_nonnulls(maximo_por_gasto, maximo_por_dia, maximo_por_mes, justificante_desde, antiguedad_maxima) > 0),
  constraint politicas_gasto_dia_mes_check check (maximo_por_dia is null or maximo_por_mes is null
    or maximo_por_dia <= maximo_por_mes),
  -- El nombre dice sus columnas tal cual: así el formulario sabe qué dos campos repiten una política
  -- que ya existe («Categoría» y «Departamento») y lo dice junto a ellos.
  constraint politicas_gasto_categoria_departamento_id_key unique nulls not distinct (categoria, departamento_id)
);
select interno.tabla_de_administracion('politicas_gasto');
grant insert (categoria, departamento_id, maximo_por_gasto, maximo_por_dia, maximo_por_mes,
              justificante_desde, antiguedad_maxima),
      update (categoria, departamento_id, maximo_por_gasto, maximo_por_dia, maximo_por_mes,
              justificante_desde, antiguedad_maxima),
      delete
  on public.politicas_gasto to authenticated;
create index politicas_gasto_departamento_idx on public.politicas_gasto (departamento_id);

create view public.politicas_gasto_vista with (security_invoker = true) as
select p.*, d.nombre as departamento_nombre
  from public.politicas_gasto p
  left join public.departamentos d on d.id = p.departamento_id;
revoke all on public.politicas_gasto_vista from public, anon, authenticated;
grant select on public.politicas_gasto_vista to authenticated, service_role;

-- Lo que el gasto incumplía al enviarlo (frases) y el motivo de quien lo envió: los escribe solo
-- enviar_gasto (sin privilegio de columna para authenticated), y se borran al volver a enviarlo.
alter table public.gastos
  add column politica_incumplida text[],
  add column motivo_politica text
    constraint gastos_motivo_politica_check check (char_length(motivo_politica) <= 500),
  add column fuera_de_politica boolean not null generated always as (politica_incumplida is not null) stored;

-- ---------------------------------------------------------------------------------------------
-- Qué incumple un gasto: interno.incumplimientos_politica (20261224000001_viajes, donde ya existe
-- el tipo interno.irpf que usa para los kilometrajes y las dietas).
-- ---------------------------------------------------------------------------------------------

-- Para quien lo va a enviar (el panel avisa y pide el motivo antes de pulsar): solo de un
-- borrador que ve.
create function public.incumplimientos_politica(p_id uuid) returns text[]
language plpgsql stable security definer set search_path = '' as $$
declare
  g public.gastos;
begin
  select * into g from public.gastos x where x.id = p_id and x.estado = 'borrador';
  if not found or not interno.puede_ver_gasto(g.solicitante_id, g.aprobador_id, g.departamento_id, g.estado) then
    return '{}';
  end if;
  return interno.incumplimientos_politica(g);
end
$$;
revoke all on function public.incumplimientos_politica(uuid) from public, anon;
grant execute on function public.incumplimientos_politica(uuid) to authenticated, service_role;


