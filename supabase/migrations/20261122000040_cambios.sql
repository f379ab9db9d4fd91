-- Oficina: un contador de cambios confirmados en los datos (ADR 0008).
--
-- El adaptador SQL guarda la cuenta y la suma de una lista (lo caro de /gastos: hasta 10 001
-- filas leídas bajo RLS en cada petición) mientras este contador no se mueva. Cualquier escritura
-- en una tabla de la que dependa lo que alguien ve en una lista —los gastos, y también usuarios y
-- departamentos (la visibilidad bajo RLS) y proveedores (la búsqueda por su nombre)— lo avanza.
--
-- Se avanza al confirmar (trigger de restricción diferido), una vez por transacción: así es el
-- último bloqueo que toma una transacción que escribe, y dos que escriben a la vez no pueden
-- bloquearse entre sí por él. Como la fila se actualiza dentro de la transacción, quien lee el
-- contador antes de contar nunca guarda una cuenta más vieja que el valor que leyó.

create table interno.cambios (
  unica boolean primary key default true check (unica),
  n bigint not null default 0
);
insert into interno.cambios default values;
alter table interno.cambios enable row level security;

create function interno.contar_cambio() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if current_setting('oficina.cambio_contado', true) is distinct from 'si' then
    update interno.cambios set n = n + 1;
    perform set_config('oficina.cambio_contado', 'si', true);
  end if;
  return null;
end
$$;

do $$
declare
  tabla text;
begin
  foreach tabla in array array['gastos', 'usuarios', 'departamentos', 'sucursales', 'proveedores'] loop
    execute format(
      'create constraint trigger contar_cambio after insert or update or delete on public.%I
         deferrable initially deferred for each row execute function interno.contar_cambio()', tabla);
    -- TRUNCATE (pruebas, mantenimiento) no admite triggers de restricción: avanza en el acto.
    execute format(
      'create trigger contar_vaciado after truncate on public.%I
         for each statement execute function interno.contar_cambio()', tabla);
  end loop;
end
$$;

-- El valor, para cualquiera que haya iniciado sesión: no dice nada de ningún dato.
create function interno.cambios() returns bigint
language sql stable security definer
set search_path = ''
as $$ select n from interno.cambios $$;

revoke all on function interno.cambios() from public;
grant execute on function interno.cambios() to authenticated, service_role;
revoke all on function interno.contar_cambio() from public;
